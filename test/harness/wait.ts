// Tests wait on conditions with deadlines, never with sleeps; the helper lives in the runtime.
export { type WaitOptions, waitFor } from "../../src/runtime/wait-for.ts";
