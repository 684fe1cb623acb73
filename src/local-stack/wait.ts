// Tests wait on conditions with deadlines, never with sleeps; the helper lives in the runtime.
export { type WaitOptions, waitFor } from "../runtime/wait-for.ts";
