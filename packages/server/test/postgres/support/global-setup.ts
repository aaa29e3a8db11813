import type { TestProject } from "vitest/node";
import { startThrowawayCluster } from "../../support/postgres-cluster.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The maintenance database of the run's throwaway PostgreSQL cluster. */
    postgresAdminUrl: string;
  }
}

/** One throwaway PostgreSQL cluster for the whole run; each suite makes its own database in it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startThrowawayCluster();
  project.provide("postgresAdminUrl", cluster.adminUrl);
  return () => cluster.destroy();
}
