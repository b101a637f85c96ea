import type { Recording } from "./transcription-ports.js";

/**
 * What Settings → Connections → Test sends: half a second of silence as a 16 kHz, 16-bit mono
 * WAV (16 KB), generated here so the daemon ships no audio file. Every server decodes WAV.
 */
export function testTone(): Recording {
  const sampleRate = 16_000;
  const samples = sampleRate / 2;
  const dataBytes = samples * 2;
  const wav = new Uint8Array(44 + dataBytes);
  const view = new DataView(wav.buffer);
  const ascii = (at: number, text: string): void => {
    for (let i = 0; i < text.length; i++) wav[at + i] = text.charCodeAt(i);
  };
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true); // PCM header size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // bytes per second
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  return { bytes: wav, mediaType: "audio/wav" };
}
