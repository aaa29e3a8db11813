import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { POST_STATUSES } from "../../../shared/contract.generated";
import { capitalize } from "../../../shared/labels";
import { getPaged } from "../../../shared/pagination";
import type { Operation } from "../../operation";

export const getManyPosts: Operation = {
  properties: [
    {
      displayName: "Return All",
      name: "returnAll",
      type: "boolean",
      default: false,
      description: "Whether to return all results or only up to a given limit",
    },
    {
      displayName: "Limit",
      name: "limit",
      type: "number",
      typeOptions: { minValue: 1 },
      default: 50,
      description: "Max number of results to return",
      displayOptions: { show: { returnAll: [false] } },
    },
    {
      displayName: "Filters",
      name: "filters",
      type: "collection",
      placeholder: "Add Filter",
      default: {},
      options: [
        {
          displayName: "Status",
          name: "status",
          type: "multiOptions",
          options: POST_STATUSES.map((status) => ({ name: capitalize(status), value: status })),
          default: [],
          description: "Only posts in these statuses. Leave empty for every status.",
        },
      ],
    },
  ],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
    const returnAll = this.getNodeParameter("returnAll", itemIndex, false) as boolean;
    const limit = returnAll ? 0 : (this.getNodeParameter("limit", itemIndex, 50) as number);
    const filters = this.getNodeParameter("filters", itemIndex, {}) as { status?: string[] };
    const qs: IDataObject = {};
    if (filters.status && filters.status.length > 0) qs.status = filters.status.join(",");
    // Newest first, as the service lists them.
    return await getPaged.call(this, { method: "GET", path: "/posts", qs, itemIndex }, { returnAll, limit });
  },
};
