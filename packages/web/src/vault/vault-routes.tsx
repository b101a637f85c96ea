import { Navigate, Route, Routes } from "react-router";
import "../styles/pages.css";
import "./vault.css";
import "../styles/pages-phone.css";
import { InvocationsPage } from "./mcp/invocations-page.js";
import { McpServersPage } from "./mcp/mcp-servers-page.js";
import { KnowledgePage } from "./knowledge/knowledge-page.js";
import { MemoryPage } from "./memory/memory-page.js";
import { SkillsPage } from "./skills/skills-page.js";

/** /vault/*: what the agents reach through Coffer's MCP gateway. Lazy-loaded. */
export default function VaultRoutes() {
  return (
    <Routes>
      <Route path="skills" element={<SkillsPage />} />
      <Route path="memory" element={<MemoryPage />} />
      <Route path="knowledge" element={<KnowledgePage />} />
      <Route path="mcp" element={<McpServersPage />} />
      <Route path="mcp/log" element={<InvocationsPage />} />
      <Route path="*" element={<Navigate to="skills" replace />} />
    </Routes>
  );
}
