// A bar chart drawn as SVG: stacked bars per bucket, one colour per series. For screen readers the
// SVG is an image with a title and a summary, and the figures are in a table after it.
import { useId } from 'react';
import { formatNumber } from '../../lib/format';

export interface ChartSeries {
  name: string;
  /** A CSS colour (the console's variables are fine). */
  color: string;
}

export interface ChartPoint {
  /** The bucket as people read it ("Nov 23", "Nov 23, 14:00"). */
  label: string;
  /** One value per series, in the series' order. */
  values: number[];
}

const BAR_WIDTH = 10;
const HEIGHT = 100;

export function UsageChart({
  title,
  series,
  points,
  format = (n) => formatNumber(n),
  summary,
}: {
  title: string;
  series: ChartSeries[];
  points: ChartPoint[];
  format?: (n: number) => string;
  /** A sentence above the chart (the range's total). */
  summary: string;
}) {
  const id = useId();
  const totals = points.map((p) => p.values.reduce((a, v) => a + v, 0));
  const max = Math.max(0, ...totals);
  const width = Math.max(1, points.length) * BAR_WIDTH;
  return (
    <figure className="usage-chart" aria-labelledby={`${id}-title`}>
      <figcaption className="usage-chart-head">
        <span id={`${id}-title`} className="usage-chart-title">{title}</span>
        <span className="muted">{summary}</span>
      </figcaption>
      <svg
        className="usage-chart-svg"
        viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-labelledby={`${id}-svg-title`}
        aria-describedby={`${id}-table`}
      >
        <title id={`${id}-svg-title`}>{`${title}: ${summary}`}</title>
        {points.map((p, i) => {
          let y = HEIGHT;
          return (
            <g key={i}>
              <title>{`${p.label}: ${series.map((s, j) => `${s.name} ${format(p.values[j] ?? 0)}`).join(', ')}`}</title>
              {p.values.map((v, j) => {
                if (!max || v <= 0) return null;
                const h = (v / max) * (HEIGHT - 2);
                y -= h;
                return <rect key={j} x={i * BAR_WIDTH + 1} y={y} width={BAR_WIDTH - 2} height={h} style={{ fill: series[j]?.color }} />;
              })}
            </g>
          );
        })}
      </svg>
      <div className="usage-chart-axis muted" aria-hidden="true">
        <span>{points[0]?.label}</span>
        <span>max {format(max)}</span>
        <span>{points[points.length - 1]?.label}</span>
      </div>
      {series.length > 1 && (
        <ul className="usage-chart-legend" aria-hidden="true">
          {series.map((s) => (
            <li key={s.name}>
              <span className="usage-chart-swatch" style={{ background: s.color }} />
              {s.name}
            </li>
          ))}
        </ul>
      )}
      {/* In a box: a table grows to its rows whatever its own width and height say. */}
      <div className="visually-hidden">
        <table id={`${id}-table`}>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              {series.map((s) => (
                <th key={s.name} scope="col">{s.name}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {points.map((p, i) => (
              <tr key={i}>
                <th scope="row">{p.label}</th>
                {series.map((s, j) => (
                  <td key={s.name}>{format(p.values[j] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
