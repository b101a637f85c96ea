import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { stripSchemaDescriptions } from "./vite-plugins/strip-descriptions.js";

// The daemon serves dist/ at `/`; during `vite dev` the API is proxied to a running daemon.
export default defineConfig({
  plugins: [react(), stripSchemaDescriptions()],
  resolve: {
    alias: {
      "@coffer/protocol": fileURLToPath(new URL("../protocol/src/index.ts", import.meta.url)),
    },
  },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, target: "es2022", chunkSizeWarningLimit: 900 },
  server: {
    proxy: { "/api": process.env.COFFER_DEV_API ?? "http://127.0.0.1:7777" },
  },
});
