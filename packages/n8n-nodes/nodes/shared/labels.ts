/** "post.published" → "Post Published", "reauth_required" → "Reauth Required". */
export function capitalize(value: string): string {
  return value
    .split(/[._\s]+/)
    .filter((word) => word !== "")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}
