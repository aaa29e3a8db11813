// The Node side of @socialpub/dashboard: the built page as a fetch handler a server mounts at `/`.
export {
  CONTENT_SECURITY_POLICY,
  createDashboard,
  type Dashboard,
  type DashboardOptions,
} from "./handler.ts";
export { NETWORK_RULES_ELEMENT_ID } from "./network-rules.ts";
