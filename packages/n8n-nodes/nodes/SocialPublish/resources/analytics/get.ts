import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";

/** Reach and engagement across published posts, with a per-network breakdown. */
export const getAnalytics: Operation = {
  properties: [],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    return await apiRequest.call(this, { method: "GET", path: "/analytics", itemIndex });
  },
};
