// node:http as its CommonJS exports object, for every module the controller loads.
// Not `import { request } from "node:http"`: an ES module import of a built-in builds a namespace
// of all its exports, and reading node:http's WebSocket, CloseEvent and MessageEvent getters
// loads Node's bundled undici (a 760 KB script) that nothing here uses: about 1 MB of heap and
// 3 MB resident for the controller's lifetime. process.getBuiltinModule hands the object over without
// reading them (test/integration/lazy-kinds.test.ts checks that undici stays unloaded).
export const nodeHttp = process.getBuiltinModule("node:http");
