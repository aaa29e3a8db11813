import type { NetworkId } from "../api/types.ts";
import type { NetworkRules } from "../lib/network-rules.ts";
import { networkName } from "../lib/network-rules.ts";

/** POST /posts/validate's answer: what each network would get. */
export interface Validation {
  valid: true;
  targets: {
    platform: string;
    parts: { text: string; media: { url: string; type: string | null; alt?: string | null }[] }[];
    first_comment: string | null;
    notes: string[];
  }[];
}

/**
 * Each targeted network's preview, as the service would publish it: a thread as its parts, a carousel
 * as its items with their alt text, the first comment, and what was adapted or not carried.
 */
export function ComposePreview(props: {
  rules: NetworkRules;
  validation: Validation | null;
  error: string | null;
  poll: { options: string[]; minutes: string } | null;
}) {
  const { validation, error, rules } = props;
  if (error)
    return (
      <section class="card preview" aria-live="polite" aria-labelledby="preview-title">
        <h2 id="preview-title" class="sub">
          Preview
        </h2>
        <p class="error" role="alert">
          {error}
        </p>
      </section>
    );
  if (!validation)
    return (
      <section class="card preview" aria-labelledby="preview-title">
        <h2 id="preview-title" class="sub">
          Preview
        </h2>
        <p class="muted">Choose a network and write something to see what each network gets.</p>
      </section>
    );
  return (
    <section class="card preview" aria-live="polite" aria-labelledby="preview-title">
      <h2 id="preview-title" class="sub">
        Preview
      </h2>
      {validation.targets.map((target) => (
        <article key={target.platform} class="network-preview" data-network={target.platform}>
          <h3>{networkName(rules, target.platform)}</h3>
          <ol class="parts">
            {target.parts.map((part, index) => (
              <li key={index} class="part">
                {target.parts.length > 1 && (
                  <span class="muted">
                    Part {index + 1} of {target.parts.length}
                  </span>
                )}
                <p class="part-text">{part.text}</p>
                {part.media.length > 0 && (
                  <ul class="media-items" aria-label="Media">
                    {part.media.map((item, i) => (
                      <li key={i}>
                        <span class="media-kind">{item.type ?? "media"}</span>{" "}
                        {item.alt ? (
                          <span class="alt">alt: {item.alt}</span>
                        ) : (
                          <span class="muted">no alt text</span>
                        )}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
          {target.first_comment !== null && (
            <p class="first-comment">
              <strong>First comment:</strong> {target.first_comment}
            </p>
          )}
          {props.poll && rules.get(target.platform as NetworkId)?.carries.poll && (
            <p class="poll">
              <strong>Poll:</strong> {props.poll.options.filter(Boolean).join(" · ")}
            </p>
          )}
          {target.notes.length > 0 && (
            <ul class="notes" aria-label="Notes">
              {target.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          )}
        </article>
      ))}
    </section>
  );
}
