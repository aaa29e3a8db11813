import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";
import { postIdField, postPath } from "./fields";

/** One output item per network the post targets: its status, adapted text, permalink, error and metrics. */
export const getPostTargets: Operation = {
  properties: [postIdField],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
    const path = postPath.call(this, itemIndex, "/targets");
    const response = (await apiRequest.call(this, { method: "GET", path, itemIndex })) as {
      data?: IDataObject[];
    };
    return response.data ?? [];
  },
};
