// The parts of the openai SDK zot uses, as one module that openai-sdk.ts imports dynamically.
// Rule: named, so the bundler leaves out the SDK's exports zot never uses (a dynamic import of the
// package itself keeps them all: 152 KiB more binary).
export { default, APIConnectionError, APIError, APIUserAbortError } from "openai";
