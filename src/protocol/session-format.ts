// The version of the session file's layout (the records themselves are in session-records.ts).
// Rule: a number alone in its own module, so writing a session builds none of the records' schemas
// (a one-shot run only writes; reading one back validates).

/**
 * The layout of the records; a reader refuses a file written in a newer one instead of misreading it.
 * 2: a tool message is written as one tool_result record per result, as each completes (1 wrote it
 * whole once every call of the step had ended); a zot of format 1 would take those results for lost.
 */
export const SESSION_FORMAT = 2;
