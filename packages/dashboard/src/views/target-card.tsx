import { useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import type { NetworkRule, Post, Target } from "../api/types.ts";
import { useApp } from "../context.ts";
import { hasOwnText } from "../lib/own-text.ts";
import { describeFit, textFit, unitName } from "../lib/text-length.ts";
import { Badge, Time } from "./parts.tsx";

const METRICS = ["reach", "likes", "comments", "shares"] as const;

/** One network's result: the text as that network shows it, its length against the limit, and the outcome. */
export function TargetCard(props: { post: Post; target: Target; rule: NetworkRule; onChange(): void }) {
  const { post, target, rule } = props;
  const { live } = useApp();
  const own = hasOwnText(post.caption, target.text, rule, post.has_media);
  const fit = textFit(post.caption, target.text, rule, post.has_media);
  const titleId = `target-${target.platform}`;
  return (
    <article
      class={`card target target-${target.status}`}
      aria-labelledby={titleId}
      data-platform={target.platform}
    >
      <header>
        <h3 id={titleId}>{rule.name}</h3>
        <Badge value={target.status} />
      </header>
      <p class="as-shown-label">
        As {rule.name} shows it
        {own && <strong class="own-text-label"> — its own text, not the caption</strong>}
      </p>
      <p class="as-shown">{target.text}</p>
      <div class={`fit${fit.length > fit.limit ? " over" : ""}`}>
        <meter min={0} max={fit.limit} value={fit.length} aria-label={`Length on ${rule.name}`} />
        <span>{describeFit(fit)}</span>
      </div>
      {!own && fit.truncated && (
        <p class="truncated">
          Shortened: the caption is {fit.captionLength.toLocaleString("en")} {unitName(fit.unit)}; {rule.name}{" "}
          takes {fit.limit.toLocaleString("en")}, so it ends with “…”.
        </p>
      )}
      {target.error && (
        <p class="error failure">
          <strong>Failed:</strong> {target.error}
        </p>
      )}
      {target.permalink && (
        <p class="permalink">
          <a href={target.permalink} target="_blank" rel="noopener noreferrer">
            {target.permalink}
          </a>
        </p>
      )}
      {target.status === "published" && (
        <>
          <dl class="metrics">
            {METRICS.map((name) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{target[name].toLocaleString("en")}</dd>
              </div>
            ))}
          </dl>
          <p class="muted">
            Published <Time ms={target.published_at} />
          </p>
          {!live && <ReportMetrics post={post} target={target} rule={rule} onChange={props.onChange} />}
        </>
      )}
    </article>
  );
}

/** POST /sandbox/metrics: report figures for this network as the network would. */
function ReportMetrics(props: { post: Post; target: Target; rule: NetworkRule; onChange(): void }) {
  const { api, announce } = useApp();
  const [error, setError] = useState<string | null>(null);
  const prefix = `metrics-${props.target.platform}`;

  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const body: Record<string, unknown> = { post_id: props.post.id, platform: props.target.platform };
    for (const name of METRICS) {
      const raw = String(form.get(name) ?? "").trim();
      if (raw !== "") body[name] = Number(raw);
    }
    try {
      await api.send("POST", "/sandbox/metrics", body);
      setError(null);
      announce(`Metrics reported for ${props.rule.name}.`);
      props.onChange();
    } catch (failure) {
      setError(describeError(failure));
    }
  }

  return (
    <details class="report">
      <summary>Report metrics</summary>
      <form onSubmit={submit}>
        {METRICS.map((name) => (
          <label key={name} for={`${prefix}-${name}`}>
            {name}
            <input
              id={`${prefix}-${name}`}
              name={name}
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              required={name === "reach"}
              defaultValue={String(props.target[name])}
            />
          </label>
        ))}
        <button type="submit">Report</button>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </form>
    </details>
  );
}
