import v8 from "node:v8";

/*
 * Upstream HTTP responses are parsed by undici's WebAssembly build of llhttp. V8 recompiles its
 * hot functions with its optimising compiler after the first few thousand responses, which takes
 * ~30 MB of memory for a moment: the largest single spike in the server's resident set. The
 * baseline compiler's code parses these small responses as fast (measured: the same CPU per
 * request), so WebAssembly stays on it. Set before the first upstream connection compiles llhttp.
 */
v8.setFlagsFromString("--liftoff-only");
