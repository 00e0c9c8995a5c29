export { type BaselineOptions, createBaselineProvider } from "./provider.js";
