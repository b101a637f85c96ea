import QRCode from "qrcode";
import { useEffect, useState } from "react";

/**
 * A QR code of `text` as a PNG data: URI (the page's CSP allows data: images and nothing
 * inline, so no SVG markup is injected). Always dark on white, whatever the theme: phone
 * cameras read that best.
 */
export function useQrCode(text: string | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!text) return;
    let live = true;
    // The standard 4-module quiet zone: in dark mode the code sits on a dark dialog, and 2 modules of
    // white were too little for some phone scanners to find the finder patterns.
    QRCode.toDataURL(text, { margin: 4, width: 176, errorCorrectionLevel: "M", color: { dark: "#000000", light: "#ffffff" } }).then(
      (u) => live && setUrl(u),
      // A link too long to encode still leaves the code and the link to use.
      () => live && setUrl(null),
    );
    return () => {
      live = false;
    };
  }, [text]);
  return url;
}
