import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";
import { postIdField, postPath } from "./fields";

export const getPost: Operation = {
  properties: [postIdField],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    return await apiRequest.call(this, { method: "GET", path: postPath.call(this, itemIndex), itemIndex });
  },
};
