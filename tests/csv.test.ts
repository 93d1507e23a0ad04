import { describe, expect, it } from "vitest";
import { centsToDecimal, csvField, csvRow, toCsv } from "~/lib/csv";
import { parseCsv } from "./support/csv";

describe("csvField", () => {
  it("leaves plain text and numbers as they are", () => {
    expect(csvField("Sambal Jar")).toBe("Sambal Jar");
    expect(csvField(3)).toBe("3");
    expect(csvField("12.50")).toBe("12.50");
  });

  it("writes null, undefined and non-finite numbers as empty fields", () => {
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField(Number.NaN)).toBe("");
  });

  it("quotes fields with a comma, a quote or a line break, doubling quotes", () => {
    expect(csvField('Tan, "Ah" Kow')).toBe('"Tan, ""Ah"" Kow"');
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("line1\nline2")).toBe('"line1\nline2"');
    expect(csvField("line1\r\nline2")).toBe('"line1\r\nline2"');
  });

  it("quotes fields with leading or trailing spaces so they survive", () => {
    expect(csvField(" padded ")).toBe('" padded "');
  });

  it("neutralises spreadsheet formulas but not plain negative numbers", () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField("+1+2")).toBe("'+1+2");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("-12.50")).toBe("-12.50");
    expect(csvField("=1", { neutraliseFormulas: false })).toBe("=1");
  });
});

describe("toCsv", () => {
  it("writes a header row and CRLF-terminated records", () => {
    const text = toCsv(
      ["Name", "Amount"],
      [
        ['Tan, "Ah" Kow', "12.50"],
        ["Siti", null],
      ],
    );
    expect(text).toBe('Name,Amount\r\n"Tan, ""Ah"" Kow",12.50\r\nSiti,\r\n');
  });

  it("writes only the header for no rows", () => {
    expect(toCsv(["A", "B"], [])).toBe("A,B\r\n");
  });

  it("round-trips through parseCsv", () => {
    const rows = [
      ["a,b", 'q"uote', "multi\nline", ""],
      ["plain", "  spaced  ", "x", "-5.00"],
    ];
    expect(parseCsv(toCsv(["h1", "h2", "h3", "h4"], rows))).toEqual([["h1", "h2", "h3", "h4"], ...rows]);
  });

  it("csvRow joins fields with commas", () => {
    expect(csvRow(["a", 1, true, undefined])).toBe("a,1,true,\r\n");
  });
});

describe("centsToDecimal", () => {
  it("formats cents as a plain decimal without separators", () => {
    expect(centsToDecimal(0)).toBe("0.00");
    expect(centsToDecimal(5)).toBe("0.05");
    expect(centsToDecimal(1250)).toBe("12.50");
    expect(centsToDecimal(123456789)).toBe("1234567.89");
    expect(centsToDecimal(-5)).toBe("-0.05");
    expect(centsToDecimal(1500, 0)).toBe("1500");
  });

  it("refuses non-integers", () => {
    expect(() => centsToDecimal(1.5)).toThrow(RangeError);
  });
});
