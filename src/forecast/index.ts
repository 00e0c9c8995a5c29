export { answerFromStructured, answerResponseFormat } from "./answer-schema.js";
export { parseAnswerType } from "./answer-type.js";
export {
  baselineForecast,
  baselineProse,
  baselineRefusal,
  baselineStatement,
} from "./baseline.js";
export { classificationMessages, parseClassification } from "./classify-model.js";
export { classifyByRules } from "./classify-rules.js";
export { extractAnswer, type Reading, readAnswer } from "./extract/index.js";
export { formatAnswerTag, formatOptionsTag } from "./format.js";
export { guidanceFor } from "./guidance.js";
export { parseOptions } from "./options.js";
export { questionText } from "./question.js";
export { repairPrompt, structuredRepairPrompt } from "./repair.js";
export {
  ANSWER_TYPES,
  type AnswerType,
  type ForecastAnswer,
  type OptionMap,
  type RequestedAnswerType,
} from "./types.js";
