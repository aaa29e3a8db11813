/* The parts of Discord's answers the adapter reads (the full shapes are in discord-openapi.json). */

export interface WebhookObject {
  id: string;
  type: number;
  name: string | null;
  guild_id?: string | null;
  channel_id: string | null;
}

export interface MessageObject {
  id: string;
  channel_id: string;
}

/** What a connected Discord account keeps (encrypted by the service). */
export interface DiscordCredentials {
  webhook_url: string;
  guild_id: string;
  channel_id: string;
}
