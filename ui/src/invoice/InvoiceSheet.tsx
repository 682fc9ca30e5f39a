// One invoice as paper: the seller's invoice screen shows it, and the renderer prints it to PDF from
// invoice.html, so the two cannot differ. Plain elements and inline styles only: the print page loads
// neither Mantine nor the app's theme. The font is Roboto, the renderer's own (renderer/fonts).

import type { CSSProperties } from 'react';
import type { InvoiceDocument, InvoiceParty } from '../api/invoices';
import { formatMoney } from '../orders/labels';

const INK = '#1a1b1e';
const MUTED = '#5c5f66';
const RULE = '#dee2e6';

const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric' };

/** A date of the invoice in the seller's time zone (UTC when the zone is unknown). */
function invoiceDate(iso: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { ...DATE, timeZone }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat('en-US', { ...DATE, timeZone: 'UTC' }).format(new Date(iso));
  }
}

const sheet: CSSProperties = {
  boxSizing: 'border-box',
  width: '210mm',
  minHeight: '297mm',
  padding: '18mm 16mm',
  background: '#fff',
  color: INK,
  fontFamily: 'Roboto, sans-serif',
  fontSize: '10pt',
  lineHeight: 1.45,
};
const label: CSSProperties = { color: MUTED, fontSize: '8pt', textTransform: 'uppercase', letterSpacing: '0.06em' };
const cell: CSSProperties = { padding: '6pt 4pt', borderBottom: `1px solid ${RULE}`, verticalAlign: 'top' };
const num: CSSProperties = { ...cell, textAlign: 'right', whiteSpace: 'nowrap' };

function Party({ title, party }: { title: string; party: InvoiceParty }) {
  const a = party.address;
  const cityLine = a ? [a.postal_code, a.city, a.state].filter(Boolean).join(' ') : '';
  return (
    <div style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
      <div style={label}>{title}</div>
      <div style={{ fontWeight: 700 }}>{party.name || party.email}</div>
      {a?.line1 && <div>{a.line1}</div>}
      {a?.line2 && <div>{a.line2}</div>}
      {cityLine && <div>{cityLine}</div>}
      {a?.country && <div>{a.country}</div>}
      {party.email && <div style={{ color: MUTED }}>{party.email}</div>}
    </div>
  );
}

/** The invoice sheet: A4 at print size. */
export function InvoiceSheet({ doc }: { doc: InvoiceDocument }) {
  const totals: [string, string][] = [['Subtotal', formatMoney(doc.subtotal)]];
  if (doc.discount.amount > 0) totals.push(['Discount', `−${formatMoney(doc.discount)}`]);
  totals.push(['Shipping', formatMoney(doc.shipping)]);
  if (doc.tip.amount > 0) totals.push(['Tip', formatMoney(doc.tip)]);
  return (
    <article style={sheet} aria-label={`Invoice ${doc.number}`}>
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: '12mm' }}>
        <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          <div style={{ fontSize: '20pt', fontWeight: 700 }}>Invoice</div>
          <div style={{ fontSize: '12pt' }}>{doc.number}</div>
        </div>
        <table style={{ borderCollapse: 'collapse', textAlign: 'right' }}>
          <tbody>
            <tr>
              <td style={{ ...label, paddingRight: '6pt' }}>Issued</td>
              <td>{invoiceDate(doc.issued_at, doc.time_zone)}</td>
            </tr>
            <tr>
              <td style={{ ...label, paddingRight: '6pt' }}>Order</td>
              <td>#{doc.order_number}</td>
            </tr>
            <tr>
              <td style={{ ...label, paddingRight: '6pt' }}>Paid</td>
              <td>{invoiceDate(doc.paid_at, doc.time_zone)}</td>
            </tr>
          </tbody>
        </table>
      </header>
      <section style={{ display: 'flex', gap: '12mm', margin: '10mm 0' }}>
        <Party title="From" party={doc.seller} />
        <Party title="Bill to" party={doc.buyer} />
      </section>
      <table style={{ width: '100%', borderCollapse: 'collapse' }}>
        <thead>
          <tr style={label}>
            <th style={{ ...cell, textAlign: 'left' }}>Item</th>
            <th style={num}>Qty</th>
            <th style={num}>Unit price</th>
            <th style={num}>Amount</th>
          </tr>
        </thead>
        <tbody>
          {doc.lines.map((l, i) => (
            <tr key={i}>
              <td style={{ ...cell, overflowWrap: 'anywhere' }}>
                {l.description}
                {(l.color || l.size) && (
                  <div style={{ color: MUTED, fontSize: '9pt' }}>{[l.color, l.size].filter(Boolean).join(' · ')}</div>
                )}
              </td>
              <td style={num}>{l.quantity}</td>
              <td style={num}>{formatMoney(l.unit_price)}</td>
              <td style={num}>{formatMoney(l.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table style={{ marginLeft: 'auto', marginTop: '6mm', borderCollapse: 'collapse', minWidth: '70mm' }}>
        <tbody>
          {totals.map(([name, value]) => (
            <tr key={name}>
              <td style={{ padding: '2pt 4pt', color: MUTED }}>{name}</td>
              <td style={{ padding: '2pt 4pt', textAlign: 'right', whiteSpace: 'nowrap' }}>{value}</td>
            </tr>
          ))}
          <tr>
            <td style={{ padding: '6pt 4pt', fontWeight: 700, borderTop: `2px solid ${INK}` }}>Total paid</td>
            <td style={{ padding: '6pt 4pt', fontWeight: 700, textAlign: 'right', borderTop: `2px solid ${INK}` }}>
              {formatMoney(doc.total)}
            </td>
          </tr>
        </tbody>
      </table>
    </article>
  );
}
