import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";

/** The key's user: plan, limits and this month's usage. */
export const getMe: Operation = {
  properties: [],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    return await apiRequest.call(this, { method: "GET", path: "/me", itemIndex });
  },
};
