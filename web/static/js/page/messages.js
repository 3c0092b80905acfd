// Messages: the page's one message table (config.messages), with {name} placeholders.

export class Messages {
  constructor(table) {
    this.table = table ?? {};
  }

  /** The text for `key` (the key itself when missing, so gaps are visible). */
  get(key) {
    return Object.hasOwn(this.table, key) ? this.table[key] : key;
  }

  /** `format` in the form for `values[countName]`: `KEY_one` when it is 1 and the table has
   * that form ("1 message sent"; Chinese needs none), else `key`. */
  plural(key, countName, values) {
    const one = `${key}_one`;
    return this.format(values[countName] === 1 && Object.hasOwn(this.table, one) ? one : key, values);
  }

  /** The text for `key` with each `{name}` replaced by `values[name]`. */
  format(key, values = {}) {
    return this.get(key).replace(/\{(\w+)\}/g, (whole, name) =>
      Object.hasOwn(values, name) ? String(values[name]) : whole);
  }
}
