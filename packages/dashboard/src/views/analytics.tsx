import type { Analytics } from "../api/types.ts";
import { useApp } from "../context.ts";
import { networkName } from "../lib/network-rules.ts";
import { usePoll } from "../poll.ts";
import { BarChart } from "./bar-chart.tsx";
import { ErrorMessage } from "./parts.tsx";

const percent = (value: number) => `${value.toFixed(2)}%`;
const whole = (value: number) => value.toLocaleString("en");

/** GET /analytics: the totals, and reach and engagement per network, as networks reported them. */
export function AnalyticsView() {
  const { api, rules, clock } = useApp();
  const analytics = usePoll(() => api.get<Analytics>("/analytics"), "analytics", clock);
  const data = analytics.data;
  return (
    <section aria-labelledby="analytics-title">
      <h1 id="analytics-title" tabIndex={-1}>
        Analytics
      </h1>
      <p class="help">
        Figures are what networks reported (in the sandbox: POST /sandbox/metrics); nothing is estimated.
      </p>
      <ErrorMessage error={analytics.error} />
      {!data ? (
        !analytics.error && <p aria-busy="true">Loading…</p>
      ) : (
        <>
          <dl class="totals">
            <div>
              <dt>Total reach</dt>
              <dd>{whole(data.totalReach)}</dd>
            </div>
            <div>
              <dt>Engagement rate</dt>
              <dd>{percent(data.engagementRate)}</dd>
            </div>
            <div>
              <dt>Posts published</dt>
              <dd>{whole(data.postsPublished)}</dd>
            </div>
            <div>
              <dt>Followers</dt>
              <dd>{whole(data.followers)}</dd>
            </div>
          </dl>
          {data.perPlatform.length === 0 ? (
            <p class="empty">No network has published a post yet.</p>
          ) : (
            <>
              <div class="charts">
                <BarChart
                  id="reach-chart"
                  title="Reach by network"
                  format={whole}
                  bars={data.perPlatform.map((row) => ({
                    label: networkName(rules, row.platform),
                    value: row.reach,
                  }))}
                />
                <BarChart
                  id="engagement-chart"
                  title="Engagement rate by network"
                  format={percent}
                  bars={data.perPlatform.map((row) => ({
                    label: networkName(rules, row.platform),
                    value: row.engagementRate,
                  }))}
                />
              </div>
              <div class="table-wrap">
                <table>
                  <caption>Per network</caption>
                  <thead>
                    <tr>
                      <th scope="col">Network</th>
                      <th scope="col" class="num">
                        Reach
                      </th>
                      <th scope="col" class="num">
                        Engagement rate
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.perPlatform.map((row) => (
                      <tr key={row.platform}>
                        <th scope="row">{networkName(rules, row.platform)}</th>
                        <td class="num">{whole(row.reach)}</td>
                        <td class="num">{percent(row.engagementRate)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
