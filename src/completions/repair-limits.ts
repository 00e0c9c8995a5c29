/** Room for the restated answer of a repair call; a repair reply is one short line. */
export const REPAIR_MAX_TOKENS = 256;

/** An upper bound on the tokens of the repair instruction added to the original exchange. */
export const REPAIR_INSTRUCTION_TOKENS = 256;
