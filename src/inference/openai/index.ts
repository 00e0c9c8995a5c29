export {
  DEFAULT_RETRY,
  DEFAULT_TIMEOUTS,
  type Deployment,
  type OpenAIProviderOptions,
  type OpenAITimeouts,
  type RetryPolicy,
} from "./options.js";
export { createOpenAIProvider, type OpenAIProvider } from "./provider.js";
