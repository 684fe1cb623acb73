// Prints the AWS services whose models the served kinds are generated from, one per line, as
// src/services/catalog.ts declares them: scripts/install-models.sh's list, so that a new kind's
// service is fetched without editing the script.
import { modelServices } from "../src/services/catalog.ts";

console.log(modelServices.join("\n"));
