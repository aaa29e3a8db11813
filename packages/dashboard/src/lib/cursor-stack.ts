/**
 * Where the pages of a cursor-paginated list start. The API only links forward (rel="next"), so going
 * back means remembering the cursors already followed. Page 1 starts without a cursor.
 */
export interface CursorStack {
  readonly cursors: readonly (string | undefined)[];
}

export const firstPage: CursorStack = { cursors: [undefined] };

export function currentCursor(stack: CursorStack): string | undefined {
  return stack.cursors[stack.cursors.length - 1];
}

export function pageNumber(stack: CursorStack): number {
  return stack.cursors.length;
}

export function forward(stack: CursorStack, next: string): CursorStack {
  return { cursors: [...stack.cursors, next] };
}

export function back(stack: CursorStack): CursorStack {
  return stack.cursors.length > 1 ? { cursors: stack.cursors.slice(0, -1) } : stack;
}
