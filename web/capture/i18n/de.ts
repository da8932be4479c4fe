import type { Catalogue } from './catalogue.js';

/**
 * The capture page in German, addressing the person formally ("Sie"). Keys and placeholders:
 * en.ts. `{requester}` (a name, or a stand-in when none is known) appears only where German puts
 * it in the nominative or accusative, so the stand-in never needs another case.
 */
export const de: Catalogue = {
  'page.title': 'Identität bestätigen',
  'page.noscript': 'Diese Seite benötigt JavaScript, um Ihre Kamera zu verwenden.',
  'language.name': 'Deutsch',
  'language.label': 'Sprache',
  'language.changed': 'Die Seite ist jetzt auf Deutsch.',

  'loading.title': 'Ihre Verifizierung wird geöffnet…',

  'handoff.title': 'Auf dem Smartphone fortfahren',
  'handoff.text':
    'Die Kamera Ihres Smartphones macht schärfere Fotos von Ihrem Ausweis. Scannen Sie diesen Code mit der Kamera-App Ihres Smartphones, um diese Seite dort zu öffnen.',
  'handoff.qr': 'QR-Code mit der Adresse dieser Seite, um sie auf Ihrem Smartphone zu öffnen',
  'handoff.private': 'Der Code enthält einen persönlichen Link nur für Sie. Geben Sie ihn nicht weiter.',
  'handoff.localhost':
    'Dieser Link verweist auf diesen Computer ({host}), daher kann ein Smartphone ihn nicht öffnen. Bitten Sie die Website um einen Link mit einer öffentlichen Adresse (PUBLIC_URL des Dienstes), oder fahren Sie auf diesem Computer fort.',
  'handoff.continue_here': 'Auf diesem Computer fortfahren',
  'progress.label': 'Fortschritt auf Ihrem Smartphone',
  'progress.title': 'Auf Ihrem Smartphone',
  'progress.document': 'Foto des Ausweisdokuments',
  'progress.faces': 'Fotos Ihres Gesichts',
  'progress.faces_count': 'Fotos Ihres Gesichts ({done} von {total})',
  'progress.done': ': erledigt',
  'progress.not_yet': ': noch nicht',
  'progress.waiting': 'Warten auf Ihr Smartphone…',
  'progress.taking': 'Ihr Smartphone nimmt die Fotos auf…',

  'intro.step': 'Bevor Sie beginnen',
  'intro.title': '{requester} bittet Sie, Ihre Identität zu bestätigen',
  'intro.title_anonymous': 'Die Website, von der Sie kommen, bittet Sie, Ihre Identität zu bestätigen',
  'intro.region': 'Was passiert',
  'intro.asked': 'Worum wir Sie bitten',
  'intro.asked_document': 'Ein Foto Ihres Reisepasses oder Personalausweises.',
  'intro.asked_faces':
    'Einige Fotos Ihres Gesichts, für die Sie den Kopf wie angegeben drehen – so wissen wir, dass Sie es wirklich sind und kein Bild.',
  'intro.kept': 'Was gespeichert wird und wie lange',
  'intro.kept_stored':
    'Ihre Fotos und die Angaben auf Ihrem Ausweisdokument werden für {requester} gespeichert und automatisch geprüft – und wenn die automatische Prüfung unsicher ist, zusätzlich von einer Person, die für {requester} arbeitet.',
  'intro.kept_until':
    'Fotos und Angaben werden aufbewahrt, bis {requester} Ihre Verifizierung löscht; damit werden die Fotos und persönlichen Daten endgültig entfernt.',
  'intro.kept_camera':
    'Die Kamera ist nur aktiv, solange diese Seite geöffnet ist; außer den Fotos, die Sie senden, verlässt nichts Ihr Smartphone.',
  'intro.policy': 'Wie {requester} mit Ihren Daten umgeht:',
  'intro.policy_link': '{requester} – Datenschutzerklärung (öffnet in einem neuen Tab)',
  'intro.question': 'Sind Sie einverstanden, dass {requester} diese Fotos aufnimmt und prüft?',
  'intro.question_note': 'Die Kamera wird erst eingeschaltet, wenn Sie zustimmen.',
  'intro.agree': 'Ich stimme zu',
  'intro.decline': 'Nein, danke',
  'intro.requester_unknown': 'diese Website',

  'declined.title': 'Sie haben abgelehnt: Es wurde nichts gesendet',
  'declined.text':
    'Es wurde kein Foto aufgenommen und die Kamera wurde nicht eingeschaltet. Wir haben {requester} darüber informiert, dass Sie nicht zugestimmt haben; dieser Link funktioniert nicht mehr.',
  'declined.again': 'Wenn Sie es sich anders überlegen, bitten Sie {requester} um einen neuen Link. Sie können diese Seite schließen.',
  'declined.requester_unknown': 'die anfragende Website',

  'expired.title': 'Dieser Link ist abgelaufen',
  'expired.text':
    'Zu Ihrer Sicherheit ist ein Link 30 Minuten lang gültig und verliert seine Gültigkeit, sobald ein neuerer erstellt wird. Kehren Sie zu der Website zurück, von der Sie gekommen sind, und fordern Sie dort einen neuen Link an.',
  'no_link.title': 'Dieser Link ist unvollständig',
  'no_link.text':
    'Öffnen Sie den vollständigen Link, den Sie von der Website erhalten haben (oder scannen Sie den QR-Code erneut). Funktioniert er dann immer noch nicht, fordern Sie bei der Website einen neuen Link an.',
  'done.title': 'Fertig – {requester} hat Ihre Fotos',
  'done.title_anonymous': 'Fertig – Sie können zur Website zurückkehren',
  'done.text': 'Ihre Fotos sind angekommen und werden geprüft. Sie können diese Seite schließen.',
  'return.named': 'Zurück zu {requester}',
  'return.anonymous': 'Zurück zur Website',

  'notice.try_again': 'Erneut versuchen',
  'notice.try_again_now': 'Jetzt erneut versuchen',
  'notice.offline': 'Sie scheinen offline zu sein. Prüfen Sie Ihre Verbindung: Sobald sie wieder besteht, geht es automatisch weiter.',
  'notice.wait_one': 'Zu viele Versuche in kurzer Zeit. Bitte warten Sie {seconds} Sekunde und versuchen Sie es dann erneut.',
  'notice.wait_other': 'Zu viele Versuche in kurzer Zeit. Bitte warten Sie {seconds} Sekunden und versuchen Sie es dann erneut.',
  'notice.wait_over': 'Sie können es jetzt erneut versuchen.',
  'notice.resumed': 'Dieser Teil war bereits erledigt: Es geht an der Stelle weiter, an der Sie gerade sind.',
  'notice.page_broken': 'Auf dieser Seite ist etwas schiefgelaufen. Laden Sie sie neu, um dort weiterzumachen, wo Sie aufgehört haben.',
  'notice.service_trouble': 'Der Dienst hat gerade Probleme. Warten Sie einen Moment und versuchen Sie es dann erneut.',
  'notice.service_refused':
    'Der Dienst hat diesen Schritt abgelehnt ({status}). Laden Sie die Seite neu, um dort weiterzumachen, wo Sie aufgehört haben.',
  'upload.sending': 'Wird gesendet… {percent} %',
  'upload.subject_document': 'das Foto Ihres Ausweisdokuments',
  'upload.subject_face': 'das Foto Ihres Gesichts',
  'upload.too_large':
    'Wir konnten {subject} nicht verwenden: Die Datei ist größer als 15 MB. Nehmen Sie das Foto erneut auf oder wählen Sie eine kleinere Datei.',
  'upload.wrong_type':
    'Wir konnten {subject} nicht verwenden: Es ist kein JPEG-, PNG- oder WebP-Bild. Nehmen Sie das Foto erneut auf oder wählen Sie eine Bilddatei.',
  'upload.too_small':
    'Wir konnten {subject} nicht verwenden: Es hat zu wenige Pixel für die Prüfung. Nehmen Sie das Foto erneut auf, näher und mit der Kamera statt als Screenshot oder kleine Kopie.',
  'upload.unreadable_document':
    'Wir konnten das Foto Ihres Ausweisdokuments nicht verwenden: Es ist leer oder unlesbar. Nehmen Sie das Foto erneut auf, mit dem ganzen Dokument im Rahmen.',
  'upload.unreadable_face':
    'Wir konnten das Foto Ihres Gesichts nicht verwenden: Es ist leer oder unlesbar. Nehmen Sie das Foto erneut auf.',

  'announce.declined': 'Sie haben abgelehnt. Es wurde nichts gesendet.',
  'announce.done': 'Fertig. Sie können zur Website zurückkehren.',
  'announce.done_on_phone': 'Fertig auf Ihrem Smartphone.',
  'announce.step': 'Schritt {step} von {total}: {instruction}',
  'announce.sending': 'Wird gesendet: {percent} Prozent',
  'announce.sending_card': 'Die Fotos Ihres Personalausweises werden gesendet',
  'announce.sending_document': 'Das Foto Ihres Ausweisdokuments wird gesendet',
  'announce.document_received': 'Ausweisdokument empfangen',
  'announce.sending_photo': 'Das Foto wird gesendet',

  'camera.denied': 'Die Kamera ist für diese Seite blockiert. Sie können stattdessen ein Foto aufnehmen oder auswählen.',
  'camera.missing': 'Es wurde keine Kamera gefunden. Sie können stattdessen ein Foto auswählen.',
  'camera.unsupported': 'Dieser Browser kann die Kamera hier nicht anzeigen. Sie können stattdessen ein Foto aufnehmen oder auswählen.',
  'camera.busy':
    'Die Kamera konnte nicht gestartet werden (vielleicht verwendet sie gerade eine andere App). Sie können stattdessen ein Foto aufnehmen oder auswählen.',
  'camera.starting': 'Die Kamera wird gestartet…',
  'camera.no_picture': 'Die Kamera hat kein Bild geliefert. Drücken Sie die Schaltfläche erneut.',
  'camera.rear': 'Vorschau der Rückkamera',
  'camera.front': 'Vorschau der Frontkamera',
  'photo.take': 'Foto aufnehmen',
  'photo.send': 'Dieses Foto senden',
  'photo.not_prepared': 'Das Foto konnte nicht vorbereitet werden. Versuchen Sie es erneut.',

  'document.step': 'Schritt 1 von 2',
  'document.step_card': 'Schritt 1 von 2 · Foto {photo} von 2',
  'document.choose': 'Welches Ausweisdokument verwenden Sie?',
  'document.choose_text': 'Wählen Sie das Dokument, das Sie dabeihaben. Es darf nicht abgelaufen sein.',
  'document.passport': 'Reisepass',
  'document.passport_hint': 'Ein Foto: die Seite mit Ihrem Foto',
  'document.id_card': 'Personalausweis',
  'document.id_card_hint': 'Zwei Fotos: erst die Vorderseite, dann die Rückseite',
  'document.passport_title': 'Fotografieren Sie die Datenseite Ihres Reisepasses',
  'document.passport_text':
    'Schlagen Sie Ihren Reisepass auf der Seite mit Ihrem Foto auf und legen Sie ihn flach in gutes Licht. Richten Sie die Seite im Rahmen aus, sodass die zwei Zeilen mit Buchstaben und <<<-Zeichen unten auf der Seite im markierten Streifen liegen.',
  'document.card_front_title': 'Fotografieren Sie die Vorderseite Ihres Personalausweises',
  'document.card_front_text': 'Die Seite mit Ihrem Foto. Legen Sie den Ausweis flach in gutes Licht und richten Sie ihn im Rahmen aus.',
  'document.card_back_title': 'Jetzt die Rückseite Ihres Personalausweises',
  'document.card_back_text':
    'Drehen Sie den Ausweis um. Richten Sie ihn im Rahmen aus, sodass die Zeilen mit Buchstaben und <<<-Zeichen unten im markierten Streifen liegen.',
  'document.check_one': 'Foto prüfen',
  'document.check_both': 'Beide Fotos prüfen',
  'document.check_question': 'Sind alle vier Ecken im Bild, und ist der Text scharf und frei von Spiegelungen?',
  'document.check_zone': 'Prüfen Sie, ob Sie die Zeilen mit Buchstaben und <<<-Zeichen lesen können.',
  'document.preview_passport': 'Das Foto der Datenseite Ihres Reisepasses, zum Prüfen vor dem Senden',
  'document.preview_card_front_next': 'Das Foto der Vorderseite Ihres Personalausweises, zum Prüfen vor dem nächsten Schritt',
  'document.preview_card_front': 'Das Foto der Vorderseite Ihres Personalausweises, zum Prüfen vor dem Senden',
  'document.preview_card_back': 'Das Foto der Rückseite Ihres Personalausweises, zum Prüfen vor dem Senden',
  'document.front': 'Vorderseite',
  'document.back': 'Rückseite',
  'document.send_both': 'Beide Fotos senden',
  'document.use': 'Dieses Foto verwenden',
  'document.retake': 'Erneut aufnehmen',
  'document.retake_back': 'Rückseite erneut aufnehmen',
  'document.retake_front': 'Vorderseite erneut aufnehmen',
  'document.take_or_choose': 'Foto aufnehmen oder auswählen',
  'document.choose_instead': 'Stattdessen ein Foto auswählen',
  'document.different': 'Anderes Ausweisdokument verwenden',
  'document.not_a_photo': 'Diese Datei ist kein Foto, das dieser Browser öffnen kann. Wählen Sie ein JPEG- oder PNG-Foto.',
  'document.not_used': 'Nicht verwendet: {reason}',
  'document.too_small':
    'Dieses Foto ist zu klein für die Prüfung (es braucht mindestens {width}×{height} Pixel). Nehmen Sie das Foto mit der Kamera auf, so nah, dass das Dokument den Rahmen ausfüllt.',
  'document.no_document':
    'Auf diesem Foto ist kein Ausweisdokument zu erkennen. Legen Sie das Dokument bei gutem Licht flach auf eine einfarbige Unterlage und richten Sie es im Rahmen aus.',
  'document.blurry':
    'Dieses Foto ist unscharf. Halten Sie das Smartphone still, lassen Sie die Kamera auf das Dokument scharfstellen und nehmen Sie es dann erneut auf.',
  'document.glare':
    'Ein Teil des Dokuments ist durch Spiegelungen verdeckt. Kippen Sie das Dokument etwas oder gehen Sie weiter weg von Lampe oder Fenster, und nehmen Sie es dann erneut auf.',

  'challenge.step': 'Schritt 2 von 2 · Foto {photo} von {total}',
  'challenge.turn_left': 'Drehen Sie den Kopf leicht zu Ihrer eigenen linken Seite',
  'challenge.turn_right': 'Drehen Sie den Kopf leicht zu Ihrer eigenen rechten Seite',
  'challenge.look_straight': 'Schauen Sie direkt in die Kamera',
  'challenge.smile': 'Schauen Sie direkt in die Kamera und lächeln Sie',
  'challenge.blink': 'Schauen Sie direkt in die Kamera und blinzeln Sie langsam',
  'challenge.still': 'Dies ist ein Standbild: Halten Sie die Augen offen, wenn es aufgenommen wird.',
  'challenge.without_camera': 'Nehmen Sie dabei ein Selfie auf oder wählen Sie eines aus, auf dem Ihr ganzes Gesicht zu sehen ist.',
  'challenge.with_button':
    'Halten Sie Ihr Gesicht im Oval. Drücken Sie die Schaltfläche und halten Sie dann die Position: Das Foto wird nach {seconds} Sekunden aufgenommen.',
  'challenge.with_guide':
    'Halten Sie Ihr Gesicht im Oval. Das Foto wird automatisch aufgenommen, sobald Ihre Kopfhaltung stimmt; oder drücken Sie die Schaltfläche und halten Sie die Position {seconds} Sekunden lang.',
  'challenge.check_failed':
    'Die automatische Prüfung Ihrer Kopfhaltung funktioniert auf diesem Gerät nicht: Befolgen Sie die Anweisung sorgfältig, bevor Sie das Foto aufnehmen.',
  'challenge.check_loading': 'Die automatische Prüfung wird vorbereitet…',
  'challenge.checking': 'Ihre Kopfhaltung wird geprüft…',
  'challenge.hold_still': 'Stillhalten… {count}',
  'challenge.not_sent': 'Nicht gesendet: {hint} Nehmen Sie das Foto dann erneut auf.',
  'challenge.chosen': 'Das ausgewählte Foto, zum Prüfen vor dem Senden',
  'challenge.chosen_refused': 'Dieses Foto kann nicht verwendet werden. {hint} Wählen Sie ein anderes aus oder nehmen Sie ein neues auf.',
  'challenge.choose_another': 'Anderes Foto auswählen',
  'challenge.take_or_choose': 'Selfie aufnehmen oder auswählen',
  'challenge.not_a_photo': 'Diese Datei ist kein Foto, das dieser Browser öffnen kann. Wählen Sie ein anderes Foto.',
  'pose.front': 'Zeichnung: ein Gesicht, das geradeaus schaut',
  'pose.left': 'Zeichnung: ein Kopf, zu Ihrer linken Seite gedreht',
  'pose.right': 'Zeichnung: ein Kopf, zu Ihrer rechten Seite gedreht',
  'hint.no_face': 'Ihr Gesicht ist nicht zu sehen. Schauen Sie bei gutem Licht auf den Bildschirm, mit dem ganzen Gesicht im Bild.',
  'hint.two_faces': 'Bitte nur ein Gesicht: Achten Sie darauf, dass niemand sonst im Bild ist.',
  'hint.look_straight': 'Schauen Sie direkt auf den Bildschirm.',
  'hint.wrong_way_left': 'Das ist Ihre rechte Seite. Drehen Sie den Kopf nach links.',
  'hint.wrong_way_right': 'Das ist Ihre linke Seite. Drehen Sie den Kopf nach rechts.',
  'hint.more_left': 'Drehen Sie den Kopf noch etwas weiter nach links.',
  'hint.more_right': 'Drehen Sie den Kopf noch etwas weiter nach rechts.',
  'hint.closer': 'Kommen Sie näher: Ihr Gesicht sollte das Oval ausfüllen.',
  'hint.hold': 'Position halten…',
};
