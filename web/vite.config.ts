import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** The dashboard is served by Sibyl at /dashboard/ from dist/web (src/http/routes/dashboard.ts). */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/dashboard/",
  plugins: [react()],
  logLevel: "warn",
  build: {
    outDir: fileURLToPath(new URL("../dist/web", import.meta.url)),
    emptyOutDir: true,
    assetsDir: "assets",
    // Anything inlined would be a data: URL; keep every asset a file under 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // React, recharts and d3 together; the pages themselves are a few tens of kilobytes.
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      // Libraries change less often than the pages: their own files stay cached across releases.
      output: {
        manualChunks: (id) => (id.includes("/node_modules/") ? "vendor" : undefined),
      },
    },
  },
});
