export * from "./vault-knowledge.js";
export * from "./vault-memory.js";
export * from "./vault-skills.js";
export * from "./vault-uploads.js";
