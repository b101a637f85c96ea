import { Navigate, Route, Routes } from "react-router";
import "../styles/pages.css";
import "../styles/pages-phone.css";
import { ChannelsPage } from "./channels/channels-page.js";
import { ConnectionsPage } from "./connections/connections-page.js";
import { CredentialsPage } from "./credentials/credentials-page.js";
import { DataPage } from "./data/data-page.js";
import { SchedulesPage } from "./schedules/schedules-page.js";
import { AlertsPage } from "../alerts/alerts-page.js";

/** /settings/*: the tab lives in the path. Lazy-loaded. */
export default function SettingsRoutes() {
  return (
    <Routes>
      <Route path="connections" element={<ConnectionsPage />} />
      <Route path="credentials" element={<CredentialsPage />} />
      <Route path="channels" element={<ChannelsPage />} />
      <Route path="schedules" element={<SchedulesPage />} />
      <Route path="data" element={<DataPage />} />
      <Route path="alerts" element={<AlertsPage />} />
      <Route path="*" element={<Navigate to="connections" replace />} />
    </Routes>
  );
}
