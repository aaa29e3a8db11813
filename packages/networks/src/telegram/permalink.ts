/*
 * Links to a message: public chats by username (https://t.me/{username}/{message_id}); private
 * channels and supergroups by their id without the -100 prefix (https://t.me/c/{id}/{message_id}), a
 * link that opens for the chat's members only.
 */
export function telegramPermalink(chat: { id: number; username: string | null }, messageId: number): string {
  if (chat.username) return `https://t.me/${chat.username}/${messageId}`;
  const id = String(chat.id);
  const internal = id.startsWith("-100") ? id.slice(4) : id.replace(/^-/, "");
  return `https://t.me/c/${internal}/${messageId}`;
}
