// Server-Sent Events read by hand: the build log stream needs the developer's Authorization
// header, which EventSource cannot send, so the CLI and the console read it with fetch and this
// parser turns the text into events. One copy for both (the console imports it from here). It
// follows the HTML standard's rules for the fields the platform sends (event, data; comments and
// other fields are skipped).

export interface SseEvent {
  /** "message" when the frame names none. */
  event: string;
  data: string;
}

/**
 * A parser fed the stream's text in whatever pieces the network delivers; each call returns the
 * events completed by that piece and keeps the unfinished rest for the next. The fields the
 * platform sends (event, data) per the HTML standard; comments and other fields are skipped.
 */
export function sseParser(): (chunk: string) => SseEvent[] {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let first = true;

  const line = (text: string, out: SseEvent[]) => {
    if (text === '') {
      // A blank line ends the frame; a frame without data is no event.
      if (data.length) out.push({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };

  return (chunk) => {
    buffer += chunk;
    if (first && buffer.length) {
      if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
      first = false;
    }
    const out: SseEvent[] = [];
    const eol = /\r\n|\r|\n/g;
    let start = 0;
    for (let m = eol.exec(buffer); m; m = eol.exec(buffer)) {
      // A lone \r at the end may be the first half of a \r\n still on its way.
      if (m[0] === '\r' && m.index === buffer.length - 1) break;
      line(buffer.slice(start, m.index), out);
      start = m.index + m[0].length;
    }
    buffer = buffer.slice(start);
    return out;
  };
}
