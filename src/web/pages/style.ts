// What the record pages add to the one stylesheet (served at /_app/records.css): a board's
// columns, the timeline, a file's preview.
export const RECORDS_CSS = `
.columns{display:flex;gap:.6rem;overflow-x:auto;padding-bottom:.4rem}
.columns .column{min-width:13rem;flex:1 0 13rem;margin:0}
.columns .column h3{font-size:.95rem;margin:0 0 .4rem}
.columns .column ul{margin:0;padding-left:1.1rem;font-size:.9rem}
ol.timeline{list-style:none;padding:0;margin:0;border-left:2px solid var(--line)}
ol.timeline li{padding:.25rem 0 .25rem .8rem}
img.preview{max-width:100%;max-height:36rem;border:1px solid var(--line);border-radius:6px}
h3{font-size:1rem;margin:1rem 0 .4rem}
`;
