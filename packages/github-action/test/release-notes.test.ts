import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { shortGitHubReference, textNamesGitHubUrl, unmention } from "../src/release-notes/github-links.ts";
import { releaseNotesToText } from "../src/release-notes/to-social-text.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/release-notes/${name}`, import.meta.url), "utf8");

describe("real release notes read as plain social text", () => {
  const cases = [
    { file: "tflint-v0.64.0.md", repo: "terraform-linters/tflint" },
    { file: "esbuild-v0.12.5.md", repo: "evanw/esbuild" },
    { file: "pnpm-v7.27.0.md", repo: "pnpm/pnpm" },
    { file: "node-v24.11.1.md", repo: "nodejs/node" },
  ];

  for (const { file, repo } of cases) {
    it(`${file}: matches the reviewed text and keeps no Markdown syntax`, async () => {
      const text = releaseNotesToText(fixture(file), { repo });
      await expect(text).toMatchFileSnapshot(`./fixtures/social-text/${file.replace(/\.md$/, ".txt")}`);
      expect(text).not.toMatch(/^#+ /m); // heading marks
      expect(text).not.toMatch(/\*\*|__|``/); // emphasis marks, code spans
      expect(text).not.toMatch(/\]\(|!\[/); // link and image syntax
      expect(text).not.toMatch(/^[*-] /m); // Markdown bullets (they become "•")
      expect(text).not.toMatch(/\n{3,}/);
    });
  }

  // The CRLF variants are made here rather than committed, so that no Git line-ending setting can turn
  // them back into LF on checkout.
  for (const { file, repo } of cases) {
    it(`${file} with CRLF line endings reads exactly as with LF, without a stray carriage return`, () => {
      const crlf = fixture(file).replace(/\r?\n/g, "\r\n");
      const text = releaseNotesToText(crlf, { repo });
      expect(text).not.toContain("\r");
      expect(text).toBe(releaseNotesToText(fixture(file), { repo }));
    });
  }

  it("a CRLF hard-wrapped paragraph reads as one sentence", () => {
    expect(releaseNotesToText("Buffers are no longer\r\nzero-filled.\r\n\r\n- one\r\n- two\r\n")).toBe(
      "Buffers are no longer zero-filled.\n\n• one\n• two",
    );
  });

  it("old Mac line endings (CR alone) are line endings too", () => {
    expect(releaseNotesToText("## Fixes\r\r- one\r- two\r")).toBe("Fixes\n• one\n• two");
  });

  it("GitHub's generated notes lose the New Contributors section and the Full Changelog line", () => {
    const text = releaseNotesToText(fixture("tflint-v0.64.0.md"), { repo: "terraform-linters/tflint" });
    expect(text).not.toMatch(/New Contributors|made their first contribution|Full Changelog|compare\/v0\.63/);
    expect(text).toContain(
      "Bug Fixes\n• plugin: fetch attestation bundles from bundle_url by Kunalbehbud in #2593",
    );
  });

  it("pull request links of the same repository read #123, as on the release page", () => {
    const text = releaseNotesToText(fixture("tflint-v0.64.0.md"), { repo: "terraform-linters/tflint" });
    expect(text).toContain("• cmd: include worker dir for no-range recursive issues by Zakharden in #2524");
    expect(text).not.toContain("https://github.com/terraform-linters/tflint/pull/");
  });

  it("GitHub @mentions lose their @ so they tag nobody on the networks", () => {
    const text = releaseNotesToText(fixture("tflint-v0.64.0.md"), { repo: "terraform-linters/tflint" });
    expect(text).not.toMatch(/(^|\s)@\w/);
    expect(text).toContain("by dependabot[bot] in #2559");
  });

  it("code blocks are left out and the sentence that introduced one ends with a full stop", () => {
    const text = releaseNotesToText(fixture("esbuild-v0.12.5.md"), { repo: "evanw/esbuild" });
    expect(text).not.toContain("console.log");
    expect(text).toContain("Each literal turns into a function call to a helper function.\n");
  });

  it("inline code keeps its text, links keep their URL after the text", () => {
    const text = releaseNotesToText(fixture("esbuild-v0.12.5.md"), { repo: "evanw/esbuild" });
    expect(text).toContain("such as --target=es5");
    expect(text).toContain(
      "TypeScript 4.3 blog post (https://devblogs.microsoft.com/typescript/announcing-typescript-4-3/)",
    );
    expect(text).toContain("• Add support for lowering tagged template literals to ES5 (#297)");
  });

  it("a line break inside a paragraph is a space, so hard-wrapped notes read as sentences", () => {
    const text = releaseNotesToText(fixture("node-v24.11.1.md"), { repo: "nodejs/node" });
    expect(text).toContain("incorrectly zero-filling buffers has now been addressed");
    expect(text).toContain(
      "• [0a15ccf3f4] - benchmark: improve cpu.sh for safety and usability (Nam Yooseong) #60162",
    );
  });

  it("a list item's later paragraphs stay with it, indented under the bullet", () => {
    const text = releaseNotesToText(fixture("pnpm-v7.27.0.md"), { repo: "pnpm/pnpm" });
    expect(text).toContain("• Deduplicate direct dependencies.\n  Let's say there are two projects");
  });
});

describe("Markdown rules", () => {
  const convert = (markdown: string) => releaseNotesToText(markdown, { repo: "octo/app" });

  it("HTML comments, HTML tags and images are removed; text between inline tags stays", () => {
    expect(
      convert("<!-- generated -->\n\nPress <kbd>Ctrl</kbd> ![shot](https://x.test/a.png) now\n\n<img src=x>"),
    ).toBe("Press Ctrl now");
  });

  it("a badge (a link around only an image) disappears entirely", () => {
    expect(convert("[![CI](https://img.test/ci.svg)](https://ci.test) Fast.")).toBe("Fast.");
  });

  it("headings become lines that sit directly on their content; a heading left empty is dropped", () => {
    expect(convert("# Title\n\nText\n\n## Empty\n\n```sh\nnpm i\n```\n\n## Fixes\n\n- one\n- two")).toBe(
      "Title\nText\n\nFixes\n• one\n• two",
    );
  });

  it("a heading whose only subsection held nothing but code is dropped with it", () => {
    expect(convert("# v2.0.0\n\n## Install\n\n```sh\nnpm i app@2\n```")).toBe("");
    expect(convert("# v2.0.0\n\n## Install\n\n```sh\nnpm i app@2\n```\n\n# Fixes\n\n- one")).toBe(
      "Fixes\n• one",
    );
    // A heading keeps its place while something is left under it, however deep.
    expect(convert("# v2.0.0\n\n## Install\n\n```sh\nnpm i\n```\n\n## Fixes\n\n- one")).toBe(
      "v2.0.0\nFixes\n• one",
    );
  });

  it("ordered lists keep their numbers, nested lists are indented", () => {
    expect(convert("3. c\n4. d\n   - nested")).toBe("3. c\n4. d\n  • nested");
  });

  it("emphasis marks go, their text stays; struck-through text is withdrawn", () => {
    expect(convert("A *very* **bold** ~~old~~ move")).toBe("A very bold move");
  });

  it("links: text (URL); bare URLs as written; anchors and relative links as their text", () => {
    expect(
      convert("See [the guide](https://example.com/guide), https://example.com/x and www.example.com"),
    ).toBe("See the guide (https://example.com/guide), https://example.com/x and www.example.com");
    expect(convert("Read [the docs](./docs/x.md) or [below](#usage)")).toBe("Read the docs or below");
  });

  it("reference links resolve through their definitions", () => {
    expect(convert("Read [the guide][g].\n\n[g]: https://example.com/guide")).toBe(
      "Read the guide (https://example.com/guide).",
    );
  });

  it("GitHub alerts read as a plain lead", () => {
    expect(convert("> [!WARNING]\n> Drops Node 18.")).toBe("Warning: Drops Node 18.");
  });

  it("tables become one line per row", () => {
    expect(convert("| Feature | Status |\n| --- | --- |\n| Foo | done |")).toBe(
      "Feature | Status\nFoo | done",
    );
  });

  it("a hard break starts a new line", () => {
    expect(convert("one  \ntwo\\\nthree")).toBe("one\ntwo\nthree");
  });

  it("empty notes give empty text", () => {
    expect(convert("")).toBe("");
    expect(
      convert(
        "<!-- Release notes generated -->\n\n**Full Changelog**: https://github.com/octo/app/compare/v1...v2",
      ),
    ).toBe("");
  });
});

describe("GitHub links", () => {
  it("issue, pull request and commit URLs shorten like GitHub renders them", () => {
    expect(shortGitHubReference("https://github.com/octo/app/pull/12", "octo/app")).toBe("#12");
    expect(shortGitHubReference("https://github.com/octo/app/issues/7", "Octo/App")).toBe("#7");
    expect(shortGitHubReference("https://github.com/other/lib/pull/12", "octo/app")).toBe("other/lib#12");
    expect(shortGitHubReference("https://github.com/octo/app/commit/abcdef1234567890", "octo/app")).toBe(
      "abcdef1",
    );
    expect(shortGitHubReference("https://github.com/octo/app/compare/v1...v2", "octo/app")).toBeUndefined();
    expect(shortGitHubReference("https://example.com/octo/app/pull/12", "octo/app")).toBeUndefined();
  });

  it("a link whose text already names its GitHub target needs no URL", () => {
    expect(textNamesGitHubUrl("#12", "https://github.com/octo/app/pull/12")).toBe(true);
    expect(textNamesGitHubUrl("#13", "https://github.com/octo/app/pull/12")).toBe(false);
    expect(textNamesGitHubUrl("0a15ccf3f4", "https://github.com/nodejs/node/commit/0a15ccf3f4")).toBe(true);
    expect(textNamesGitHubUrl("@flanakin", "https://github.com/flanakin")).toBe(true);
    expect(textNamesGitHubUrl("the fix", "https://github.com/octo/app/pull/12")).toBe(false);
  });

  it("mentions lose their @, but e-mail addresses and scoped packages keep it", () => {
    expect(unmention("thanks @octo-cat and @dependabot[bot]!")).toBe("thanks octo-cat and dependabot[bot]!");
    expect(unmention("mail a@b.com, install @types/node")).toBe("mail a@b.com, install @types/node");
  });
});

describe("blank lines made of spaces and tabs", () => {
  // The notes' runs of blank lines are collapsed before parsing (the parser's work on them grew faster
  // than the notes); Markdown reads any run of them as one blank line, so the text must not change.
  it("read as one blank line, wherever they are", () => {
    const spaced =
      "# v2\n \t \n  \n- one\n   \n\t\n  still one\n    \n- two  \n \nhard  \nbreak\n\n \n```\ncode\n  \n```\nafter:\n \n    indented code\n";
    const plain =
      "# v2\n\n- one\n\n  still one\n\n- two  \n\nhard  \nbreak\n\n```\ncode\n\n```\nafter:\n\n    indented code\n";
    expect(releaseNotesToText(spaced)).toBe(releaseNotesToText(plain));
    expect(releaseNotesToText(spaced)).toBe("v2\n• one\n  still one\n• two\n\nhard\nbreak\n\nafter.");
  });
});
