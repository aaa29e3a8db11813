/** `/collection/<id>`, with the id encoded; an empty id would address the collection instead. */
export function resourcePath(collection: string, id: string): string {
  if (typeof id !== "string" || id === "") {
    throw new TypeError(`An id is required for ${collection}.`);
  }
  return `${collection}/${encodeURIComponent(id)}`;
}
