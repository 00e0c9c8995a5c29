import v8 from "node:v8";

/*
 * Upstream HTTP responses are parsed by undici's WebAssembly build of llhttp. V8 recompiles its
 * hot functions with its optimising compiler after the first few thousand responses, which takes
 * ~30 MB of memory for a moment: the largest single spike in the server's resident set. The
 * baseline compiler's code parses these small responses as fast (measured: the same CPU per
 * request), so WebAssembly stays on it. Set before the first upstream connection compiles llhttp.
 */
v8.setFlagsFromString("--liftoff-only");

/*
 * After each full collection V8 lets the old generation grow to a multiple of what survived it,
 * a multiple it picks between 1.1 and 4 from the heap limit and recent collection speeds. Under a
 * steady batch ~35 MB survive, but now and then a collection keeps ~50 MB and the next one waits
 * until ~80 MB: 20 MB more resident set for a moment, which broke the batch benchmark's memory
 * target one run in four. A fixed 1.4 bounds that, and measured less CPU per request than V8's
 * own choice, 1.2 or 1.6.
 */
v8.setFlagsFromString("--heap-growing-percent=40");
