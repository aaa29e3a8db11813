import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";

/** The connected accounts, one item each, in the contract's network order. */
export const getManyAccounts: Operation = {
  properties: [],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
    const response = (await apiRequest.call(this, { method: "GET", path: "/accounts", itemIndex })) as {
      data?: IDataObject[];
    };
    return response.data ?? [];
  },
};
