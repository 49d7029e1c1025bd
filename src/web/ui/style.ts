// The one stylesheet of the web app, served at /_app/style.css. System fonts only: nothing is
// fetched from elsewhere.
export const STYLE = `
:root{--fg:#1d2330;--muted:#5b6475;--line:#dfe3ea;--bg:#f6f7f9;--card:#fff;--accent:#1f5fbf;
--ok:#1d7a46;--warn:#a45b00;--bad:#b3261e;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
code,pre,.mono{font-family:var(--mono);font-size:.88em}
pre{background:#0f1420;color:#e7ebf3;padding:.8rem 1rem;border-radius:6px;overflow:auto;max-height:32rem;white-space:pre-wrap;word-break:break-word}
header.top{display:flex;align-items:center;gap:1.5rem;padding:.6rem 1.2rem;background:#101726;color:#fff}
header.top a{color:#cfd8ea;text-decoration:none}
header.top a[aria-current=page]{color:#fff;font-weight:600}
header.top .brand{font-weight:700;color:#fff;font-size:1.05rem}
header.top nav{display:flex;gap:1rem}
main{max-width:72rem;margin:1.2rem auto;padding:0 1.2rem}
.area-homeowner main{max-width:44rem}
h1{font-size:1.45rem;margin:.2rem 0 .8rem}
h2{font-size:1.1rem;margin:1.4rem 0 .5rem}
.muted{color:var(--muted)}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem 1.2rem;margin:.8rem 0}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:.8rem}
table{border-collapse:collapse;width:100%;background:var(--card)}
th,td{text-align:left;vertical-align:top;padding:.4rem .6rem;border-bottom:1px solid var(--line)}
th{font-weight:600;color:var(--muted);font-size:.85rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
.badge{display:inline-block;padding:0 .5rem;border-radius:999px;font-size:.8rem;border:1px solid var(--line);background:#eef1f6}
.badge.ok{background:#e3f4ea;border-color:#b7e0c6;color:var(--ok)}
.badge.warn{background:#fff2df;border-color:#f1d3a4;color:var(--warn)}
.badge.bad{background:#fde8e6;border-color:#f3bab5;color:var(--bad)}
.tabs{display:flex;gap:.2rem;border-bottom:1px solid var(--line);margin:1rem 0 .6rem;flex-wrap:wrap}
.tabs a{padding:.35rem .8rem;text-decoration:none;color:var(--muted);border-radius:6px 6px 0 0}
.tabs a[aria-current=page]{background:var(--card);border:1px solid var(--line);border-bottom-color:var(--card);color:var(--fg)}
form.inline{display:inline}
button,.button{font:inherit;padding:.35rem .9rem;border-radius:6px;border:1px solid #8a93a5;background:#fff;color:var(--fg);cursor:pointer;text-decoration:none;display:inline-block}
button.primary,.button.primary{background:var(--accent);border-color:var(--accent);color:#fff}
button.danger{border-color:var(--bad);color:var(--bad)}
input,select,textarea{font:inherit;padding:.3rem .5rem;border:1px solid #b9c0cc;border-radius:6px;background:#fff}
label{display:block;margin:.4rem 0}
.notice{padding:.6rem 1rem;border-radius:6px;background:#fff6d5;border:1px solid #efd98a;margin:.8rem 0}
.notice.bad{background:#fde8e6;border-color:#f3bab5}
.notice.ok{background:#e3f4ea;border-color:#b7e0c6}
.thumbs{display:flex;flex-wrap:wrap;gap:.5rem}
.thumbs img{width:96px;height:72px;object-fit:cover;border-radius:4px;border:1px solid var(--line)}
.money{font-variant-numeric:tabular-nums;text-align:right}
.board{display:flex;gap:.4rem;flex-wrap:wrap}
.board .stage{padding:.2rem .6rem;border:1px solid var(--line);border-radius:6px;background:#fff;color:var(--muted);font-size:.85rem}
.board .stage.current{border-color:var(--accent);color:var(--accent);font-weight:600}
svg.map{width:100%;max-width:40rem;height:auto;background:#eaf0f7;border:1px solid var(--line);border-radius:8px}
`;
