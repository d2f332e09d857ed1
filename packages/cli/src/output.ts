// What a command prints. For people: lines on standard output. With --json: the progress lines go
// to standard error and standard output gets one JSON document (or, for a followed log, one JSON
// object a line), so a script can parse it.
export interface Output {
  json: boolean;
  /** A line for people (standard error under --json). */
  info(line: string): void;
  /** Raw text for people, as it comes (a build log). */
  write(text: string): void;
  /** The command's answer: `data` as JSON under --json, else `human()`. */
  result(data: unknown, human?: () => void): void;
}

export function output(json: boolean): Output {
  return {
    json,
    info: (line) => (json ? process.stderr.write(line + '\n') : console.log(line)),
    write: (text) => void (json ? process.stderr : process.stdout).write(text),
    result: (data, human) => (json ? console.log(JSON.stringify(data, null, 2)) : human?.()),
  };
}
