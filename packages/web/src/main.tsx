import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { DaemonGuard } from "./api/daemon-guard.js";
import { captureLaunch } from "./api/token.js";
import { App } from "./app/app.js";
import { PageCrash } from "./app/page-crash.js";
import { loadHighlighter } from "./chat/thread/highlighter.js";
import "./styles/tokens.css";
import "./styles/app.css";
import "./styles/chat-basics.css";
import "./styles/phone.css";
import "./styles/touch.css";

const guard = new DaemonGuard(captureLaunch());
// Warm the code highlighter while idle, so opening a thread renders its code once, highlighted.
(window.requestIdleCallback ?? ((f: () => void) => setTimeout(f, 200)))(() => void loadHighlighter().catch(() => undefined));
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <PageCrash>
      <App guard={guard} />
    </PageCrash>
  </StrictMode>,
);
