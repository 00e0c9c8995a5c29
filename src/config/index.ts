export { ConfigError, type LoadConfigOptions, loadConfig } from "./load.js";
export { BASELINE_MODEL_ID, type Config, defaultModels } from "./resolved.js";
export type { DeploymentConfig, ModelConfig, ResearchSourceConfig } from "./schema.js";
