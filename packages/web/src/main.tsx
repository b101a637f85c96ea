import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { captureToken } from "./api/token.js";
import { App } from "./app/app.js";
import "./styles/tokens.css";
import "./styles/app.css";

const token = captureToken();
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App token={token} />
  </StrictMode>,
);
