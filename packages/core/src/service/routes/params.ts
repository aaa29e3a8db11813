import { z } from "zod";

// Parameters and answers that several resources' routes describe alike.

export const postId = z.object({ id: z.string().meta({ description: "The post id, post_…" }) });
export const notFound = { description: "No post with that id belongs to the account (`Post not found.`)." };
export const platformParam = z.object({ platform: z.string().meta({ description: "A network id, e.g. x" }) });
export const webhookId = z.object({ id: z.string().meta({ description: "The webhook endpoint id, wh_…" }) });
export const webhookNotFound = {
  description: "No endpoint with that id belongs to the account (`Webhook not found.`).",
};
export const webhookEventIds = webhookId.extend({
  event_id: z.string().meta({ description: "The event id, evt_…" }),
});
export const mediaId = z.object({ id: z.string().meta({ description: "The media id, med_…" }) });
export const mediaContent = mediaId.extend({
  token: z.string().meta({ description: "The capability token from the upload's url" }),
});
export const accountNotFound = { description: "No account of that network is connected." };
export const otherMode = (act: string) => ({
  description: `The post was made with a key of the other mode (test or live): ${act} it with a key of its own mode.`,
});
export const MEDIA_BYTES = ["image/*", "video/*"] as const;
export const keyId = z.object({ id: z.string().meta({ description: "The key's id, key_…" }) });
