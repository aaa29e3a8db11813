import { barLength, compactNumber, niceScale } from "../lib/chart.ts";

export interface Bar {
  label: string;
  value: number;
}

const ROW = 28;
const LABEL_WIDTH = 110;
const PLOT_WIDTH = 360;
const AXIS = 24;

/**
 * A horizontal bar chart as SVG: a title and description for screen readers, and the exact figures in a
 * table right after it (the chart is a picture of that table).
 */
export function BarChart(props: { id: string; title: string; bars: Bar[]; format(value: number): string }) {
  const scale = niceScale(Math.max(0, ...props.bars.map((bar) => bar.value)));
  const height = props.bars.length * ROW + AXIS;
  const width = LABEL_WIDTH + PLOT_WIDTH + 60;
  const summary = props.bars.map((bar) => `${bar.label} ${props.format(bar.value)}`).join(", ");
  return (
    <figure class="chart" aria-labelledby={`${props.id}-title`}>
      <figcaption id={`${props.id}-title`}>{props.title}</figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-labelledby={`${props.id}-svg-title ${props.id}-svg-desc`}
        preserveAspectRatio="xMinYMin meet"
      >
        <title id={`${props.id}-svg-title`}>{props.title}</title>
        <desc id={`${props.id}-svg-desc`}>{summary || "No figures reported yet."}</desc>
        {scale.ticks.map((tick) => {
          const x = LABEL_WIDTH + barLength(tick, scale, PLOT_WIDTH);
          return (
            <g key={tick} class="tick">
              <line x1={x} x2={x} y1={0} y2={height - AXIS} />
              <text x={x} y={height - 6} text-anchor="middle">
                {compactNumber(tick)}
              </text>
            </g>
          );
        })}
        {props.bars.map((bar, i) => {
          const y = i * ROW;
          const length = barLength(bar.value, scale, PLOT_WIDTH);
          return (
            <g key={bar.label} class="bar">
              <text x={LABEL_WIDTH - 8} y={y + ROW / 2 + 4} text-anchor="end">
                {bar.label}
              </text>
              <rect x={LABEL_WIDTH} y={y + 5} width={length} height={ROW - 10} rx={3} />
              <text x={LABEL_WIDTH + length + 6} y={y + ROW / 2 + 4} class="value">
                {props.format(bar.value)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
