import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { idempotencyKeyOption, readIdempotencyKey } from "../../../shared/idempotency";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";
import { uploadBinary } from "../post/content";

/**
 * Uploads an image or video (POST /media) and outputs the media resource, whose `med_` id a post's
 * media takes — to attach one file to several posts, or to an Update.
 */
export const uploadMedia: Operation = {
  properties: [
    {
      displayName: "Source",
      name: "source",
      type: "options",
      options: [
        { name: "Binary File", value: "binary", description: "A file from the input item" },
        { name: "URL", value: "url", description: "An image or video already online" },
      ],
      default: "binary",
      description: "Where the image or video comes from",
    },
    {
      displayName: "Input Binary Field",
      name: "binaryPropertyName",
      type: "string",
      default: "data",
      required: true,
      hint: "The name of the input binary field containing the file to be uploaded",
      description: "Name of the input item's binary field that holds the image or video",
      displayOptions: { show: { source: ["binary"] } },
    },
    {
      displayName: "URL",
      name: "url",
      type: "string",
      default: "",
      required: true,
      placeholder: "https://example.com/image.png",
      description: "Publicly reachable address of the image or video",
      displayOptions: { show: { source: ["url"] } },
    },
    {
      displayName: "Options",
      name: "options",
      type: "collection",
      placeholder: "Add Option",
      default: {},
      options: [
        idempotencyKeyOption,
        {
          displayName: "Media Type",
          name: "type",
          type: "string",
          default: "",
          placeholder: "image/png",
          description:
            "MIME type of the media at the URL (image/… or video/…), when its address does not end in a known extension",
          displayOptions: { show: { "/source": ["url"] } },
        },
      ],
    },
  ],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    const options = this.getNodeParameter("options", itemIndex, {}) as {
      idempotencyKey?: string;
      type?: string;
    };
    const idempotencyKey = readIdempotencyKey.call(this, itemIndex, "media.upload", options.idempotencyKey);
    if (this.getNodeParameter("source", itemIndex, "binary") === "binary") {
      return await uploadBinary.call(this, itemIndex, idempotencyKey);
    }
    const body: IDataObject = { url: (this.getNodeParameter("url", itemIndex, "") as string).trim() };
    const type = (options.type ?? "").trim();
    if (type !== "") body.type = type;
    return await apiRequest.call(this, { method: "POST", path: "/media", body, idempotencyKey, itemIndex });
  },
};
