; Permit Desk for Windows: Inno Setup 6 script.
; Build the app folder first, on Windows, from the repository root:
;   py -3.11 -m venv .venv && .venv\Scripts\pip install -e .[package]
;   .venv\Scripts\pyinstaller --noconfirm packaging\permitdesk.spec      (makes dist\PermitDesk)
; then compile this script:  iscc installer.iss   (makes dist\PermitDesk-Setup-<version>.exe)
;
; The installer copies the program only. The office's data stays where the app keeps it:
; %LOCALAPPDATA%\PermitDesk\permitdesk.db (or the PostgreSQL server it is pointed to), so an
; upgrade or an uninstall never touches permits, receipts or the audit trail.

#define AppName "Permit Desk"
#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif

[Setup]
AppId={{6B7E2C1A-3F0D-4E59-9B7A-2D8C5F41A9E3}
AppName={#AppName}
AppVersion={#AppVersion}
AppPublisher=Permit Desk
DefaultDirName={autopf}\Permit Desk
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
; Installs for all users with administrator rights, or for the one user without them.
PrivilegesRequired=admin
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir=dist
OutputBaseFilename=PermitDesk-Setup-{#AppVersion}
Compression=lzma2
SolidCompression=yes
WizardStyle=modern
UninstallDisplayIcon={app}\PermitDesk.exe
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[Files]
Source: "dist\PermitDesk\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs
Source: "docs\user-guide.md"; DestDir: "{app}\docs"; Flags: ignoreversion
Source: "docs\img\*"; DestDir: "{app}\docs\img"; Flags: ignoreversion

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\PermitDesk.exe"
Name: "{autoprograms}\{#AppName} user guide"; Filename: "{app}\docs\user-guide.md"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\PermitDesk.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\PermitDesk.exe"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
