import { describe, expect, it } from "vitest";
import { leadingLines } from "../src/clean-cut.ts";

describe("whole lines", () => {
  const notes = [
    "Title",
    "Minor Changes",
    "• one",
    "  more about one",
    "• two",
    "",
    "Patch Changes",
    "• three",
  ];

  it("never end on a heading whose content was cut away, nested headings included", () => {
    expect(leadingLines(notes, 1)).toEqual([]);
    expect(leadingLines(notes, 2)).toEqual([]);
    expect(leadingLines(notes, 7)).toEqual(notes.slice(0, 6));
  });

  it("end on any list item or its indented lines", () => {
    expect(leadingLines(notes, 3)).toEqual(notes.slice(0, 3));
    expect(leadingLines(notes, 4)).toEqual(notes.slice(0, 4));
    expect(leadingLines(notes, 8)).toEqual(notes);
  });

  it("a paragraph followed by a blank line is whole", () => {
    expect(leadingLines(["A sentence.", "", "Fixes", "• one"], 1)).toEqual(["A sentence."]);
  });
});
