import { DomainError } from "./errors.js";

export class SkillNotFound extends DomainError {
  readonly code = "SKILL_NOT_FOUND";
  constructor(name: string) {
    super(`skill not found: '${name}'`, { name });
  }
}

/** The skill's folder exists but it cannot join the catalogue (no SKILL.md, bad frontmatter). */
export class SkillInvalid extends DomainError {
  readonly code = "SKILL_INVALID";
  constructor(folder: string, problem: string) {
    super(`skill '${folder}' is not usable: ${problem}`, { folder, problem });
  }
}

export class SkillExists extends DomainError {
  readonly code = "SKILL_EXISTS";
  constructor(name: string) {
    super(`a skill named '${name}' already exists`, { name });
  }
}

export class MemoryNotFound extends DomainError {
  readonly code = "MEMORY_NOT_FOUND";
  constructor(id: string) {
    super(`memory not found: '${id}'`, { id });
  }
}

export class KnowledgeBaseNotFound extends DomainError {
  readonly code = "KNOWLEDGE_BASE_NOT_FOUND";
  constructor(ref: string) {
    super(`knowledge base not found: '${ref}'`, { kb: ref });
  }
}

export class KnowledgeBaseExists extends DomainError {
  readonly code = "KNOWLEDGE_BASE_EXISTS";
  constructor(name: string) {
    super(`a knowledge base named '${name}' already exists`, { name });
  }
}

export class DocumentNotFound extends DomainError {
  readonly code = "DOCUMENT_NOT_FOUND";
  constructor(id: string) {
    super(`document not found: '${id}'`, { document_id: id });
  }
}

export class ImportNotFound extends DomainError {
  readonly code = "IMPORT_NOT_FOUND";
  constructor(id: string) {
    super(`import not found: '${id}' (imports are kept until the daemon restarts)`, { import_id: id });
  }
}

/** An import source the daemon cannot read: missing, not a file or folder, or unreadable. */
export class ImportPathInvalid extends DomainError {
  readonly code = "IMPORT_PATH_INVALID";
  constructor(path: string, why: string) {
    super(`cannot import ${path}: ${why}`, { path });
  }
}

/** A path in a page upload the file system would not take as given; the owner renames and sends again. */
export class UploadPathInvalid extends DomainError {
  readonly code = "UPLOAD_PATH_INVALID";
  constructor(path: string, why: string) {
    super(`cannot write the uploaded file ${path}: ${why}`, { path });
  }
}

/** Project-scoped memory belongs to a cwd; asking for it without one is a caller's mistake. */
export class ScopeNeedsProject extends DomainError {
  readonly code = "VALIDATION_FAILED";
  constructor() {
    super("scope 'project' needs the project's cwd", { field: "cwd" });
  }
}

export class McpServerNotFound extends DomainError {
  readonly code = "MCP_SERVER_NOT_FOUND";
  constructor(name: string) {
    super(`no MCP server named "${name}"`, { name });
  }
}

export class McpServerExists extends DomainError {
  readonly code = "MCP_SERVER_EXISTS";
  constructor(name: string) {
    super(`an MCP server named "${name}" already exists`, { name });
  }
}

export class McpServerPatchRejected extends DomainError {
  readonly code = "VALIDATION_FAILED";
  constructor(transport: string, fields: readonly string[]) {
    super(`a ${transport} server has no ${fields.join(", ")}`, { transport, fields });
  }
}
