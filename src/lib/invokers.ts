/**
 * Invoker buttons (`commandfor` + `command`) open and close dialogs without any script where the browser supports
 * them; where it does not, this listener does the same (the header search's button and close button).
 * Returns whether it was needed.
 */
export function supportInvokers(doc: Document = document): boolean {
  if ('commandForElement' in HTMLButtonElement.prototype) return false;
  doc.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[commandfor]') : null;
    const dialog = button && doc.getElementById(button.getAttribute('commandfor') ?? '');
    if (!button || !(dialog instanceof HTMLDialogElement)) return;
    const command = button.getAttribute('command');
    if (command === 'show-modal' && !dialog.open) dialog.showModal();
    else if ((command === 'close' || command === 'request-close') && dialog.open) dialog.close();
  });
  return true;
}
