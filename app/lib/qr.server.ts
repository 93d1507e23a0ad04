import QRCode from "qrcode";

/**
 * A real, scannable QR code of `text` as an SVG document string (error correction M, 2-module quiet zone),
 * rendered on the server. The markup comes from the qrcode library only (it never embeds the text itself).
 */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
