import { buildDashboard } from "../../scripts/build.ts";

export default async function setup(): Promise<void> {
  await buildDashboard();
}
