import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { Icon } from "./icons.js";

export interface Toast {
  readonly id: number;
  readonly text: string;
  readonly tone?: "error";
  readonly action?: { readonly label: string; readonly run: () => void };
}

type Push = (toast: Omit<Toast, "id">) => void;
const ToastContext = createContext<Push>(() => undefined);

let nextId = 1;

/** Outcomes and Undo, bottom-right; errors stay until closed (an error must be read, so it never times out). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const close = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const push = useCallback<Push>(
    (toast) => {
      const id = nextId++;
      setToasts((t) => [...t.slice(-2), { ...toast, id }]);
      if (toast.tone !== "error") setTimeout(() => close(id), toast.action ? 8000 : 5000);
    },
    [close],
  );
  const value = useMemo(() => push, [push]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts">
        {toasts.map((t) => (
          <div key={t.id} className={`toast ${t.tone === "error" ? "toast-error" : ""}`} role={t.tone === "error" ? "alert" : "status"}>
            <span className="toast-text">{t.text}</span>
            {t.action && (
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => {
                  t.action!.run();
                  close(t.id);
                }}
              >
                {t.action.label}
              </button>
            )}
            <button type="button" className="icon-btn" aria-label="Close notification" onClick={() => close(t.id)}>
              <Icon name="x" size={14} />
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): Push {
  return useContext(ToastContext);
}
